/**
 * Unit vectors kept column-major in one contiguous Float32Array (`data[dim * capacity + row]`).
 *
 * Why column-major: a query only has to visit its non-zero coordinates, and each visit is one
 * sequential sweep over a column. The local embedder's vectors have a few dozen non-zeros out of
 * 256, so a query at 100k rows costs a few million multiply-adds instead of 25 million — and the
 * result is still the exact dot product, because skipped terms are exactly zero. Dense vectors
 * (OpenAI) simply visit every column.
 */
export class ColumnMatrix {
  readonly dimension: number;
  private capacity: number;
  private rows = 0;
  private data: Float32Array;
  private scores: Float32Array;

  constructor(dimension: number, capacity = 64) {
    this.dimension = dimension;
    this.capacity = Math.max(1, capacity);
    this.data = new Float32Array(dimension * this.capacity);
    this.scores = new Float32Array(this.capacity);
  }

  get size(): number {
    return this.rows;
  }

  /** Appends a row (already normalized) and returns its index. */
  push(vector: ArrayLike<number>): number {
    if (this.rows === this.capacity) this.grow(this.capacity * 2);
    const row = this.rows;
    this.rows += 1;
    this.set(row, vector);
    return row;
  }

  set(row: number, vector: ArrayLike<number>): void {
    const { data, capacity } = this;
    for (let j = 0; j < this.dimension; j += 1) data[j * capacity + row] = vector[j] ?? 0;
  }

  /** Row-major copy of one row. */
  row(row: number): Float32Array {
    const out = new Float32Array(this.dimension);
    for (let j = 0; j < this.dimension; j += 1) out[j] = this.data[j * this.capacity + row] ?? 0;
    return out;
  }

  /** Moves the last row into `row` and drops the last (swap-remove); returns the moved row's old index. */
  removeBySwap(row: number): number {
    const last = this.rows - 1;
    if (row !== last) {
      const { data, capacity } = this;
      for (let j = 0; j < this.dimension; j += 1) data[j * capacity + row] = data[j * capacity + last] ?? 0;
    }
    this.rows = last;
    return last;
  }

  clear(): void {
    this.rows = 0;
  }

  /** Dot product of `query` with every row; the returned array is reused by the next call. */
  scoreAll(query: ArrayLike<number>): Float32Array {
    const n = this.rows;
    const scores = this.scores.subarray(0, n);
    scores.fill(0);
    const nonZero: number[] = [];
    for (let j = 0; j < this.dimension; j += 1) if (query[j] !== 0) nonZero.push(j);
    let k = 0;
    // Four columns per sweep: a quarter of the passes over `scores`, which is what bounds the loop.
    for (; k + 4 <= nonZero.length; k += 4) {
      const a = this.column(nonZero[k] ?? 0, n);
      const b = this.column(nonZero[k + 1] ?? 0, n);
      const c = this.column(nonZero[k + 2] ?? 0, n);
      const d = this.column(nonZero[k + 3] ?? 0, n);
      const qa = query[nonZero[k] ?? 0] ?? 0;
      const qb = query[nonZero[k + 1] ?? 0] ?? 0;
      const qc = query[nonZero[k + 2] ?? 0] ?? 0;
      const qd = query[nonZero[k + 3] ?? 0] ?? 0;
      for (let i = 0; i < n; i += 1) scores[i] = (scores[i] ?? 0) + qa * (a[i] ?? 0) + qb * (b[i] ?? 0) + qc * (c[i] ?? 0) + qd * (d[i] ?? 0);
    }
    for (; k < nonZero.length; k += 1) {
      const a = this.column(nonZero[k] ?? 0, n);
      const qa = query[nonZero[k] ?? 0] ?? 0;
      for (let i = 0; i < n; i += 1) scores[i] = (scores[i] ?? 0) + qa * (a[i] ?? 0);
    }
    return scores;
  }

  /** Rows in row-major order, for persisting. */
  toRowMajor(): Float32Array {
    const out = new Float32Array(this.rows * this.dimension);
    for (let j = 0; j < this.dimension; j += 1) {
      const column = this.column(j, this.rows);
      for (let i = 0; i < this.rows; i += 1) out[i * this.dimension + j] = column[i] ?? 0;
    }
    return out;
  }

  private column(j: number, n: number): Float32Array {
    return this.data.subarray(j * this.capacity, j * this.capacity + n);
  }

  private grow(capacity: number): void {
    const next = new Float32Array(this.dimension * capacity);
    for (let j = 0; j < this.dimension; j += 1) next.set(this.column(j, this.rows), j * capacity);
    this.data = next;
    this.capacity = capacity;
    this.scores = new Float32Array(capacity);
  }
}
