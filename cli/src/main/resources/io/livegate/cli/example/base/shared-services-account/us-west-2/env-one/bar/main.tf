data "terraform_remote_state" "baz" {
  backend = "local"
  config = {
    path = "../baz/terraform.tfstate"
  }
}

resource "terraform_data" "bar" {
  input = "bar after ${data.terraform_remote_state.baz.outputs.id}"
}

output "id" {
  value = terraform_data.bar.output
}
