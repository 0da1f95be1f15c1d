// SPDX-License-Identifier: Apache-2.0
// Copyright 2026 The eredu authors

#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
