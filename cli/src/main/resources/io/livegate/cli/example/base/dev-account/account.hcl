locals {
  account_name = "dev"
}
