// API keys and their credit balances, with what was charged and refunded per key so a test can
// prove a client paid once per task and got its money back on failure.

export interface AccountTotals {
	charged: number;
	refunded: number;
}

export class Accounts {
	private readonly balances = new Map<string, number>();

	private readonly totals = new Map<string, AccountTotals>();

	set(apiKey: string, credits: number): void {
		if (typeof apiKey !== 'string' || apiKey === '')
			throw new Error('an API key must be a non-empty string');
		if (!Number.isInteger(credits) || credits < 0) {
			throw new Error(`credits for "${apiKey}" must be a whole number >= 0`);
		}
		this.balances.set(apiKey, credits);
	}

	has(apiKey: string): boolean {
		return this.balances.has(apiKey);
	}

	balance(apiKey: string): number {
		return this.balances.get(apiKey) ?? 0;
	}

	/** Deducts atomically: either the whole amount or nothing. */
	tryCharge(apiKey: string, amount: number): boolean {
		const balance = this.balances.get(apiKey);
		if (balance === undefined || balance < amount) return false;
		this.balances.set(apiKey, balance - amount);
		this.totalsOf(apiKey).charged += amount;
		return true;
	}

	refund(apiKey: string, amount: number): void {
		this.balances.set(apiKey, (this.balances.get(apiKey) ?? 0) + amount);
		this.totalsOf(apiKey).refunded += amount;
	}

	clear(): void {
		this.balances.clear();
		this.totals.clear();
	}

	snapshot(): {
		balances: Record<string, number>;
		charged: number;
		refunded: number;
		byKey: Record<string, AccountTotals>;
	} {
		const byKey: Record<string, AccountTotals> = {};
		let charged = 0;
		let refunded = 0;
		for (const [key, totals] of this.totals) {
			byKey[key] = { ...totals };
			charged += totals.charged;
			refunded += totals.refunded;
		}
		return { balances: Object.fromEntries(this.balances), charged, refunded, byKey };
	}

	private totalsOf(apiKey: string): AccountTotals {
		let totals = this.totals.get(apiKey);
		if (!totals) {
			totals = { charged: 0, refunded: 0 };
			this.totals.set(apiKey, totals);
		}
		return totals;
	}
}
