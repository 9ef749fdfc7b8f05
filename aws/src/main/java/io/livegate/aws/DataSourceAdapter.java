package io.livegate.aws;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.logging.Logger;
import javax.sql.DataSource;

/** A DataSource that hands every call to the one {@link #delegate()} returns. */
abstract class DataSourceAdapter implements DataSource {
  protected abstract DataSource delegate() throws SQLException;

  @Override
  public Connection getConnection() throws SQLException {
    return delegate().getConnection();
  }

  @Override
  public Connection getConnection(String username, String password) throws SQLException {
    return delegate().getConnection(username, password);
  }

  @Override
  public PrintWriter getLogWriter() throws SQLException {
    return delegate().getLogWriter();
  }

  @Override
  public void setLogWriter(PrintWriter out) throws SQLException {
    delegate().setLogWriter(out);
  }

  @Override
  public void setLoginTimeout(int seconds) throws SQLException {
    delegate().setLoginTimeout(seconds);
  }

  @Override
  public int getLoginTimeout() throws SQLException {
    return delegate().getLoginTimeout();
  }

  @Override
  public Logger getParentLogger() throws SQLFeatureNotSupportedException {
    return Logger.getLogger("livegate.metadb");
  }

  @Override
  public <T> T unwrap(Class<T> type) throws SQLException {
    return delegate().unwrap(type);
  }

  @Override
  public boolean isWrapperFor(Class<?> type) throws SQLException {
    return delegate().isWrapperFor(type);
  }
}
