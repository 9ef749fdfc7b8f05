data "terraform_remote_state" "bar" {
  backend = "local"
  config = {
    path = "../bar/terraform.tfstate"
  }
}

resource "terraform_data" "foo" {
  input = "foo after ${data.terraform_remote_state.bar.outputs.id}"
}
