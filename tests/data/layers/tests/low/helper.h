// allowed: a helper of its own test area
#pragma once
