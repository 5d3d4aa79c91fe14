// Include path used by host code for fe::PlatFormInfos.
#pragma once
#include "aoc/host/platform_config.h"
