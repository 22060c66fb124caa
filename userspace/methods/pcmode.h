/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The modes of --precondition (see precondition.h for what each writes)
 * and the span of --section, as a method's options give them.
 */
#ifndef SSDLOAD_PCMODE_H
#define SSDLOAD_PCMODE_H

#include <stddef.h>
#include <stdint.h>

#define SSL_PC_SEQ_BS		131072	/* fill, seq128k, WIPC: SEQ 128KiB writes */
#define SSL_PC_RND_BS		4096	/* random, WDPC: RND 4KiB writes */
#define SSL_PC_QD		32	/* the passes' queue depth */
#define SSL_PC_WIPC_LOOPS	2	/* pts: the WIPC is twice the span */
#define SSL_PC_MAX_PASSES	16	/* N of random:N, seq128k:N */
#define SSL_PC_ROUND_MS		60000	/* pts: a WDPC round, the spec's minute */
#define SSL_PC_MAX_ROUNDS	25	/* pts: the WDPC's round limit ... */
#define SSL_PC_MIN_ROUNDS	5	/* ... at least one steady-state window */
#define SSL_PC_JSON		"precondition.json"

enum ssl_pc_mode { SSL_PC_NONE, SSL_PC_FILL, SSL_PC_RANDOM, SSL_PC_SEQ128K, SSL_PC_PTS };

struct ssl_precond {
	enum ssl_pc_mode mode;
	unsigned int passes;	/* fill 1, random:N and seq128k:N N, pts the WIPC's 2 */
	uint64_t round_ms;	/* pts: a WDPC round */
	unsigned int max_rounds;	/* pts: the WDPC's round limit */
	/* --precondition-span: the bytes from the start, or a percentage */
	uint64_t span_bytes;		/* 0: not given */
	double span_pct;		/* 0: not given */
	char span_arg[32];		/* as given, "" if not */
};

/* the span a pass of @bs covers: @span down to a multiple of @bs */
static inline uint64_t ssl_pass_span(uint64_t span, unsigned int bs)
{
	return span / bs * bs;
}

/* "none", "fill", "random", "seq128k" or "pts" */
const char *ssl_precond_name(enum ssl_pc_mode mode);
/* --precondition=@val of command @cmd into @pc; 0, or -1 after a message */
int ssl_precond_parse(const char *cmd, const char *val, struct ssl_precond *pc);
/* "none", "fill", "random:2", "seq128k:3", "pts" or "pts:5000ms:10" into @buf */
void ssl_precond_str(const struct ssl_precond *pc, char *buf, size_t len);
/*
 * --precondition-span=@val (SIZE or P%) into @pc (kept by a later
 * ssl_precond_parse()); 0, or -1 after a message.
 */
int ssl_precond_span_parse(const char *cmd, const char *val, struct ssl_precond *pc);
/*
 * The span @pc writes on a device of @capacity bytes: the whole device,
 * or its first --precondition-span (at most the device, rounded down to
 * a multiple of 4 KiB, the random passes' block).
 */
uint64_t ssl_precond_span(const struct ssl_precond *pc, uint64_t capacity);
/* the bytes that @pc writes over @span (pts: its WIPC; the WDPC's are measured) */
uint64_t ssl_precond_promised(const struct ssl_precond *pc, uint64_t span);

/*
 * --section=@val: the measurement's span, a percentage of the device
 * ("25%") or a size (fio's size=), into @out as `ssdload run --size`
 * takes it: 0; 1 if @val is neither (then it names a profile's section);
 * -1 a percentage out of range (why in @why).
 */
int ssl_section_span(const char *val, char *out, size_t len, char *why, size_t wlen);

#endif /* SSDLOAD_PCMODE_H */
