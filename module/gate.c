// SPDX-License-Identifier: GPL-2.0
/*
 * ssdload: the gate of start GROUP (struct ssdload_gate).
 *
 * configfs.c allocates a gate for each start GROUP, job.c hands it to
 * the workers of the jobs it launches, and each worker passes it before
 * its first I/O.
 */
#include <linux/ktime.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/wait.h>

#include "ssdload.h"

/* A gate for start GROUP, with the start time of its jobs. */
struct ssdload_gate *ssdload_gate_alloc(void)
{
	struct ssdload_gate *gate;

	gate = kvzalloc(struct_size(gate, cpu_left, nr_cpu_ids), GFP_KERNEL);
	if (!gate)
		return NULL;
	refcount_set(&gate->ref, 1);
	init_waitqueue_head(&gate->wq);
	atomic_set(&gate->left, 0);
	gate->start_ns = ktime_get_ns();
	return gate;
}

void ssdload_gate_put(struct ssdload_gate *gate)
{
	if (refcount_dec_and_test(&gate->ref))
		kvfree(gate);
}

/* May worker @w go: the gate opened, its job stopped, or it waited long? */
static bool ssdload_gate_open(struct ssdload_gate *gate,
			      struct ssdload_worker *w)
{
	/* pairs with the release of the last worker to check in */
	return smp_load_acquire(&gate->open) || READ_ONCE(w->job->stop) ||
	       ktime_get_ns() - gate->start_ns >= SSDLOAD_GATE_MAX_NS;
}

/*
 * Worker @w's first step after start GROUP: check in, then wait until
 * every worker of the group did (the last one opens the gate).  See
 * struct ssdload_gate.
 */
void ssdload_gate_pass(struct ssdload_worker *w)
{
	struct ssdload_gate *gate = w->gate;
	bool peers;
	u64 t;

	peers = atomic_dec_return(&gate->cpu_left[w->cpu]) > 0;
	if (atomic_dec_and_test(&gate->left)) {
		smp_store_release(&gate->open, true); /* pairs: gate_open() */
		wake_up_all(&gate->wq);
	}
	if (!peers) {
		preempt_disable();
		t = ktime_get_ns();
		while (!ssdload_gate_open(gate, w) &&
		       ktime_get_ns() - t < SSDLOAD_GATE_HOLD_NS)
			cpu_relax();
		preempt_enable();
	}
	t = ktime_get_ns() - gate->start_ns;
	if (t < SSDLOAD_GATE_MAX_NS)
		wait_event_timeout(gate->wq, ssdload_gate_open(gate, w),
				   nsecs_to_jiffies(SSDLOAD_GATE_MAX_NS - t) + 1);
	w->gate = NULL;
	ssdload_gate_put(gate);
}
