// Some host files include the implementation registry directly; it has what op_def_registry has.
#pragma once
#include "register/op_def_registry.h"
