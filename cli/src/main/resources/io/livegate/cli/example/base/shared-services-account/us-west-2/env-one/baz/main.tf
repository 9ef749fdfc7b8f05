data "terraform_remote_state" "global" {
  backend = "local"
  config = {
    path = "../../../global/terraform.tfstate"
  }
}

resource "terraform_data" "baz" {
  input = "baz on ${data.terraform_remote_state.global.outputs.network_id}"
}

output "id" {
  value = terraform_data.baz.output
}
