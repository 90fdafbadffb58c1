/**
 * The test seam of `waiting/`: what the tests read of a schedule that the item's wait never asks
 * (the next wait without settling it, the predicted finish, whether progress is still used). The
 * package's own schedule and planner keep none of it.
 */
import type {
	PlannerSetup,
	PollPlanner as PackagePlanner,
} from '../../nodes/shared/waiting/poll-planner';
import { PollSchedule as PackageSchedule } from '../../nodes/shared/waiting/poll-schedule';

export class PollSchedule extends PackageSchedule {
	/** How long to wait, from `now`, before the next check. Only reads. */
	waitMs(now: number): number {
		return this.plan(now).waitMs;
	}

	/** By when the task should have finished, from its progress; undefined while unknown. */
	get predictedFinish(): number | undefined {
		return this.finishPrediction;
	}

	/** Whether progress still looks usable for predictions. */
	get usesProgress(): boolean {
		return this.informative;
	}
}

export type PollPlanner = PackagePlanner & Pick<PollSchedule, 'waitMs'>;

/** A planner as the package's `pollPlanner` makes it, with the seam's readers. */
export function pollPlanner(setup: PlannerSetup): PollPlanner {
	return new PollSchedule(
		setup.createdAt,
		setup.intervalMs,
		setup.firstWaitMs ?? setup.intervalMs,
		setup.queue,
	);
}
