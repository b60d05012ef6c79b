// SPDX-License-Identifier: GPL-2.0
/*
 * A module that misbehaves on purpose when loaded, so the runner's self-test
 * can show that each kind of kernel trouble fails a run.
 *   insmod misbehave.ko fault=none|warn|oops|hang|lockup
 */
#include <linux/module.h>
#include <linux/delay.h>
#include <linux/preempt.h>
#include <linux/string.h>

static char *fault = "none";
module_param(fault, charp, 0444);
MODULE_PARM_DESC(fault, "none, warn, oops, hang or lockup");

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
