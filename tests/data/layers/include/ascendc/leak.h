// flagged: the API headers use nothing in src/
#pragma once
#include "low/ok.h"
