/* version.h: kconfperf's version string. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef VERSION_H
#define VERSION_H

#define KCONFPERF_VERSION "0.1.0"

#endif
