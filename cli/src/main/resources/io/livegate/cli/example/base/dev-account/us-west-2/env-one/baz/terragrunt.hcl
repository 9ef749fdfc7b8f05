include "root" {
  path = find_in_parent_folders("root.hcl")
}

dependency "global" {
  config_path = "../../../global"
}
