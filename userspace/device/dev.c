// SPDX-License-Identifier: GPL-2.0
/*
 * Names of the device record's write-cache states and purge methods
 * (dev.h), and which purge the specification accepts.
 */
#include <string.h>

#include "core/array_size.h"
#include "device/dev.h"

static const char *const wc_names[] = {
	[SSL_WC_UNKNOWN]	= "unknown",
	[SSL_WC_ABSENT]		= "absent",
	[SSL_WC_ENABLED]	= "enabled",
	[SSL_WC_DISABLED]	= "disabled",
};

static const char *const purge_names[] = {
	[SSL_PURGE_AUTO]	= "auto",
	[SSL_PURGE_SANITIZE]	= "sanitize",
	[SSL_PURGE_FORMAT]	= "format",
	[SSL_PURGE_SECDISCARD]	= "secdiscard",
	[SSL_PURGE_DISCARD]	= "discard",
	[SSL_PURGE_OVERWRITE]	= "overwrite",
	[SSL_PURGE_NONE]	= "none",
	[SSL_PURGE_SECERASE]	= "security-erase",
};

const char *ssl_wc_name(enum ssl_wc wc)
{
	if ((unsigned int)wc >= ARRAY_SIZE(wc_names))
		return "unknown";
	return wc_names[wc];
}

const char *ssl_purge_name(enum ssl_purge p)
{
	if ((unsigned int)p >= ARRAY_SIZE(purge_names))
		return "unknown";
	return purge_names[p];
}

int ssl_purge_parse(const char *s, enum ssl_purge *p)
{
	size_t i;

	if (!s)
		return -1;
	for (i = 0; i < ARRAY_SIZE(purge_names); i++) {
		if (!strcmp(s, purge_names[i])) {
			*p = (enum ssl_purge)i;
			return 0;
		}
	}
	return -1;
}

int ssl_purge_conformant(enum ssl_purge used, const char **why)
{
	switch (used) {
	case SSL_PURGE_SANITIZE:
	case SSL_PURGE_FORMAT:
	case SSL_PURGE_SECERASE:
		return 1;
	case SSL_PURGE_SECDISCARD:
	case SSL_PURGE_DISCARD:
		*why = "a discard is not a purge: the drive may keep the data and its "
		       "mapping state (the specification asks for Sanitize, Format or "
		       "Security Erase)";
		return 0;
	case SSL_PURGE_OVERWRITE:
		*why = "an overwrite is not a purge: it leaves the drive full, not fresh "
		       "out of the box (the specification asks for Sanitize, Format or "
		       "Security Erase)";
		return 0;
	default:
		*why = "the device was not purged";
		return 0;
	}
}
