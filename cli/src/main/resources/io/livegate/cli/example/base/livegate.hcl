# The accounts of this live repository (format: docs/accounts.md in livegate).
account "shared_services" {
  path           = "shared-services-account"
  voters         = ["platform-lead@example.com", "sre-oncall@example.com"]
  min_approvals  = 1
  min_rejections = 1
}

account "dev" {
  path           = "dev-account"
  depends_on     = ["shared_services"]
  voters         = ["platform-lead@example.com"]
  min_approvals  = 1
  min_rejections = 1
}
