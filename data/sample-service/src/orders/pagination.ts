/** The orders API pages with 1-based page numbers (`?page=1` is the first page). */
export interface PageRequest {
  page: number;
  pageSize: number;
}

export interface PageWindow {
  /** 0-based index of the page inside the result set. */
  index: number;
  offset: number;
  limit: number;
  pageCount: number;
}

export interface Page<T> {
  items: T[];
  page: number;
  pageSize: number;
  pageCount: number;
  total: number;
}

export const MAX_PAGE_SIZE = 100;

export function pageCountOf(total: number, pageSize: number): number {
  return Math.max(1, Math.ceil(total / pageSize));
}

export function parsePageRequest(query: URLSearchParams, defaultPageSize: number): PageRequest {
  const page = Number(query.get('page') ?? '1');
  const pageSize = Number(query.get('pageSize') ?? String(defaultPageSize));
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    pageSize: Number.isInteger(pageSize) ? Math.min(Math.max(pageSize, 1), MAX_PAGE_SIZE) : defaultPageSize,
  };
}

export function assertPageIndex(index: number, pageCount: number): void {
  if (!Number.isInteger(index) || index < 0 || index >= pageCount) {
    throw Object.assign(new RangeError(`page index ${index} out of range [0, ${pageCount - 1}]`), { code: 'PAGE_OUT_OF_RANGE' });
  }
}

/** Where the requested page starts in a result set of `total` rows. */
export function pageWindow(request: PageRequest, total: number): PageWindow {
  const pageCount = pageCountOf(total, request.pageSize);
  const index = request.page;
  assertPageIndex(index, pageCount);
  return { index, offset: index * request.pageSize, limit: request.pageSize, pageCount };
}

export function toPage<T>(items: T[], request: PageRequest, window: PageWindow, total: number): Page<T> {
  return { items, page: request.page, pageSize: request.pageSize, pageCount: window.pageCount, total };
}
