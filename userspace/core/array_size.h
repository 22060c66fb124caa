/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ARRAY_SIZE, alone: for the lowest files of core/ (options.c), which
 * util.c calls and so must not include util.h back.
 */
#ifndef SSDLOAD_CLI_ARRAY_SIZE_H
#define SSDLOAD_CLI_ARRAY_SIZE_H

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

#endif /* SSDLOAD_CLI_ARRAY_SIZE_H */
