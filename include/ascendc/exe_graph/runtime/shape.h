// Include path used by host code for gert::Shape / gert::StorageShape.
#pragma once
#include "aoc/host/shape.h"
