// allowed
#pragma once
#include <vector>
