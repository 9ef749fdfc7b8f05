# Included by every unit. Reads the account's settings from the nearest account.hcl.
locals {
  account = read_terragrunt_config(find_in_parent_folders("account.hcl"))
}

inputs = {
  account_name = local.account.locals.account_name
  unit_path    = path_relative_to_include()
}
