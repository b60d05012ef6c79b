// SPDX-License-Identifier: GPL-2.0
/*
 * A module that misbehaves on purpose when loaded, so the runner's self-test
 * can show that each kind of kernel trouble fails a run.
 *   insmod misbehave.ko fault=none|warn|oops|hang|lockup
 * and, for the checkers of a debug kernel (build/kernel-debug.config):
 *   fault=uaf|oob|lockorder|sleep|leak
 */
#include <linux/module.h>
#include <linux/delay.h>
#include <linux/mutex.h>
#include <linux/preempt.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *fault = "none";
module_param(fault, charp, 0444);
MODULE_PARM_DESC(fault, "none, warn, oops, hang, lockup, uaf, oob, lockorder, sleep or leak");

static DEFINE_MUTEX(misbehave_a);
static DEFINE_MUTEX(misbehave_b);
static void *misbehave_leaked;

/* The faults a debug kernel's checkers find and a stock kernel survives. */
static void misbehave_checked(void)
{
	char *volatile p;
	int volatile i = 16;

	if (!strcmp(fault, "uaf")) {
		p = kmalloc(32, GFP_KERNEL);
		if (!p)
			return;
		kfree(p);
		pr_info("misbehave: read after free: %d\n", p[0]);
	} else if (!strcmp(fault, "oob")) {
		p = kmalloc(16, GFP_KERNEL);
		if (!p)
			return;
		pr_info("misbehave: read past the end: %d\n", p[i]);
		kfree(p);
	} else if (!strcmp(fault, "lockorder")) {
		/* a then b, later b then a: lockdep names the possible deadlock */
		mutex_lock(&misbehave_a);
		mutex_lock(&misbehave_b);
		mutex_unlock(&misbehave_b);
		mutex_unlock(&misbehave_a);
		mutex_lock(&misbehave_b);
		mutex_lock(&misbehave_a);
		mutex_unlock(&misbehave_a);
		mutex_unlock(&misbehave_b);
	} else if (!strcmp(fault, "sleep")) {
		preempt_disable();
		msleep(1);
		preempt_enable();
	} else if (!strcmp(fault, "leak")) {
		/* forget the only reference: kmemleak's next scan reports it */
		misbehave_leaked = kmalloc(64, GFP_KERNEL);
		misbehave_leaked = NULL;
	}
}

static int __init misbehave_init(void)
{
	int i;

	if (!strcmp(fault, "warn")) {
		WARN(1, "misbehave: deliberate warning\n");
	} else if (!strcmp(fault, "oops")) {
		/* volatile keeps the compiler from proving the fault away */
		int *volatile p = NULL;

		*p = 1;
	} else if (!strcmp(fault, "hang")) {
		/* uninterruptible sleep, long enough for the hung-task detector */
		msleep(20000);
	} else if (!strcmp(fault, "lockup")) {
		/* spin with preemption off, longer than the soft-lockup limit */
		preempt_disable();
		for (i = 0; i < 6000; i++)
			mdelay(1);
		preempt_enable();
	} else {
		misbehave_checked();
	}
	return 0;
}

static void __exit misbehave_exit(void)
{
}

module_init(misbehave_init);
module_exit(misbehave_exit);
MODULE_DESCRIPTION("Deliberately faulty module for the test runner's self-test");
MODULE_LICENSE("GPL");
