// allowed: high may use low
#include "low/ok.h"
#include "high/x.h"
