/** 64 KiB inputs of the shapes that make backtracking regexes quadratic, shared by benchmarks and tests. */
const SIZE = 64 * 1024;
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

export const ADVERSARIAL_64K: Record<string, string> = {
  whitespace: fill(' '),
  tabs_newlines: fill('\t \n'),
  keywordless_word: fill('a'),
  uppercase_run: fill('A'),
  underscore_run: `${fill('_').slice(1)}a`,
  dollar_run: fill('$'),
  digits_after_letter: `a${fill('1').slice(1)}`,
  camel_alternation: fill('aA'),
  acronym_runs: fill('ABCDEFGHIJKLMNOPQRSTUVWXYZ_'),
  nested_separators: fill('a.b_c$d::e\\f/'),
  short_words: fill('ab.'),
  near_identifier: fill('abc1_'),
  json_like: fill('{"userId":1,"orderId":[2,3]},'),
};
