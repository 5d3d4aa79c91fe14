// Include path used by host code for gert::InferShapeContext.
#pragma once
#include "aoc/host/infer_context.h"
