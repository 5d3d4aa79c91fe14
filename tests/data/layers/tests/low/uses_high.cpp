// allowed: its own helper; flagged: high from a test of low
#include "low/helper.h"
#include "high/x.h"
