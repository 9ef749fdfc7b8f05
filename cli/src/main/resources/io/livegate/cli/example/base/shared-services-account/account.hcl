locals {
  account_name = "shared-services"
}
