// Placeholder until implemented.
#pragma once
