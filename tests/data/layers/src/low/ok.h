// allowed: a folder includes itself
#pragma once
#include "low/ok.h"
