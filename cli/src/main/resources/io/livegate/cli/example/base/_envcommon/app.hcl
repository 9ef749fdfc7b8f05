# Shared by the app units (bar, foo): every app unit deploys after its account's global unit.
dependency "global" {
  config_path = "${get_terragrunt_dir()}/../../../global"
}
