// flagged: low may not use high
#include "low/ok.h"
  #  include "high/x.h"
