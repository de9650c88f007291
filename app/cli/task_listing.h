#pragma once
// milab-cli tasks [--long]: the tasks every task plugin offers (id, name, exact I(x;y) at the defaults), and with
// --long what each offers beyond samples and each parameter with its default, range and meaning.
namespace milab {

int listTasks(bool longForm);

}  // namespace milab
