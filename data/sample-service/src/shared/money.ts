/** Amounts are integer minor units (cents), so sums never drift the way floats do. */
export type Cents = number;

export function toCents(amount: number): Cents {
  return Math.round(amount * 100);
}

export function sumCents(values: readonly Cents[]): Cents {
  return values.reduce((total, value) => total + value, 0);
}

export function assertCents(value: number, what: string): Cents {
  if (!Number.isInteger(value) || value < 0) {
    throw new RangeError(`${what} must be a non-negative whole number of cents, got ${value}`);
  }
  return value;
}

/** Percentage of an amount, rounded half up to the cent. */
export function percentOf(amount: Cents, percent: number): Cents {
  return Math.round((amount * percent) / 100);
}

export function formatCents(amount: Cents, currency = 'EUR'): string {
  return new Intl.NumberFormat('en-IE', { style: 'currency', currency }).format(amount / 100);
}
