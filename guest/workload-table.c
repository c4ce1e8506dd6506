/* workload-table.c: the guest's copy of the workload table (the host compiles the same file). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "../src/run/workload-table.c"
