variable "account_name" {
  type    = string
  default = "unknown"
}

resource "terraform_data" "network" {
  input = "${var.account_name}-network-v2"
}

output "network_id" {
  value = terraform_data.network.output
}
