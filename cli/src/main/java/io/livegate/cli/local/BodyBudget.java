package io.livegate.cli.local;

/**
 * The bytes of request bodies the web server holds in memory at once, across all its requests. A
 * request takes its share before a byte of its body is read and gives it back once answered; a
 * request that finds no room is refused (503) unread. Big bodies (a webhook may be 25 MB) share all
 * but a reserve, which stays for small ones (votes, GitHub's usual deliveries of a few kB): forty
 * unsigned 25 MB bodies get two at a time into memory and never the reserve.
 */
final class BodyBudget {
  private final long total;
  private final long smallBody;
  private final long smallReserve;
  private long used;

  /**
   * @param total the bytes all bodies in memory may hold together
   * @param smallBody the largest body that may use the reserve
   * @param smallReserve the part of {@code total} that only bodies of at most {@code smallBody}
   *     bytes may use
   */
  BodyBudget(long total, long smallBody, long smallReserve) {
    if (smallReserve > total || smallBody > smallReserve) {
      throw new IllegalArgumentException(
          "a reserve of " + smallReserve + " for bodies of " + smallBody + " in " + total);
    }
    this.total = total;
    this.smallBody = smallBody;
    this.smallReserve = smallReserve;
  }

  /** Takes {@code bytes} if they fit; false, and nothing taken, if they do not. */
  synchronized boolean take(long bytes) {
    long limit = bytes <= smallBody ? total : total - smallReserve;
    if (bytes < 0 || used + bytes > limit) {
      return false;
    }
    used += bytes;
    return true;
  }

  /** Gives back what {@link #take} took. */
  synchronized void give(long bytes) {
    used -= bytes;
  }

  /** The bytes taken now. */
  synchronized long used() {
    return used;
  }
}
