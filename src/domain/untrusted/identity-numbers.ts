/**
 * Personal numbers that carry a check digit or a fixed layout: bank accounts (IBAN), payment cards
 * and national identity numbers. Each shape is matched with bounded repetitions and then verified
 * by its checksum, so order ids, timestamps and counters of the same length survive.
 */
import type { ShapeRule } from './token-shapes.js';

/** Card numbers are redacted only when they pass the Luhn check, so order ids and timestamps survive. */
export function luhnValid(digits: string): boolean {
  if (digits.length < 8 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function mod97(numeric: string): number {
  let rest = 0;
  for (const char of numeric) rest = (rest * 10 + Number(char)) % 97;
  return rest;
}

export function ibanValid(text: string): boolean {
  const iban = text.replace(/ /g, '').toUpperCase();
  if (iban.length < 15 || iban.length > 34) return false;
  const rotated = iban.slice(4) + iban.slice(0, 4);
  const numeric = rotated.replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  return mod97(numeric) === 1;
}

function ssnValid(text: string): boolean {
  const [area, group, serial] = text.split('-');
  return area !== '000' && area !== '666' && !area?.startsWith('9') && group !== '00' && serial !== '0000';
}

function cpfValid(text: string): boolean {
  const d = text.replace(/\D/g, '').split('').map(Number);
  if (d.length !== 11 || d.every((x) => x === d[0])) return false;
  const check = (n: number) => {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += (d[i] ?? 0) * (n + 1 - i);
    const r = (sum * 10) % 11;
    return r === 10 ? 0 : r;
  };
  return check(9) === d[9] && check(10) === d[10];
}

const VERHOEFF_D = [[0,1,2,3,4,5,6,7,8,9],[1,2,3,4,0,6,7,8,9,5],[2,3,4,0,1,7,8,9,5,6],[3,4,0,1,2,8,9,5,6,7],[4,0,1,2,3,9,5,6,7,8],[5,9,8,7,6,0,4,3,2,1],[6,5,9,8,7,1,0,4,3,2],[7,6,5,9,8,2,1,0,4,3],[8,7,6,5,9,3,2,1,0,4],[9,8,7,6,5,4,3,2,1,0]];
const VERHOEFF_P = [[0,1,2,3,4,5,6,7,8,9],[1,5,7,6,2,8,3,0,9,4],[5,8,0,3,7,9,6,1,4,2],[8,9,1,6,0,4,3,5,2,7],[9,4,5,3,1,2,6,8,7,0],[4,2,8,6,5,7,3,9,0,1],[2,7,9,3,8,0,6,4,1,5],[7,0,4,6,9,1,3,2,5,8]];

function verhoeffValid(digits: string): boolean {
  let c = 0;
  const reversed = digits.split('').reverse();
  reversed.forEach((char, i) => {
    c = VERHOEFF_D[c]?.[VERHOEFF_P[i % 8]?.[Number(char)] ?? 0] ?? 0;
  });
  return c === 0;
}

function dniValid(text: string): boolean {
  const normalized = text.toUpperCase().replace(/^X/, '0').replace(/^Y/, '1').replace(/^Z/, '2');
  const number = Number(normalized.slice(0, 8));
  return 'TRWAGMYFPDXBNJZSQVHLCKE'[number % 23] === normalized[8];
}

function chineseIdValid(text: string): boolean {
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += Number(text[i]) * (weights[i] ?? 0);
  return '10X98765432'[sum % 11] === text[17]?.toUpperCase();
}

function nirValid(text: string): boolean {
  const digits = text.replace(/ /g, '');
  return 97 - (Number(BigInt(digits.slice(0, 13)) % 97n)) === Number(digits.slice(13));
}

export const IDENTITY_NUMBERS: ShapeRule[] = [
  { label: 'iban', re: /\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){2,7}(?: ?[A-Z0-9]{1,4})?\b/g, accept: ibanValid },
  { label: 'card', re: /(?<!\w|\w[-/.:])\d(?:[ -]?\d){12,18}(?!\w|[-/.:]\w)/g, accept: (m) => luhnValid(m.replace(/\D/g, '')) },
  { label: 'national-id', re: /(?<![\w-])\d{3}-\d{2}-\d{4}(?![\w-])/g, accept: ssnValid },
  { label: 'national-id', re: /\b[A-CEGHJ-TW-Z][A-CEGHJ-NP-TW-Z] ?\d{2} ?\d{2} ?\d{2} ?[A-D]\b/g },
  { label: 'national-id', re: /(?<![\w.-])\d{3}\.\d{3}\.\d{3}-\d{2}(?![\w-])/g, accept: cpfValid },
  { label: 'national-id', re: /(?<![\w-]|\d[ -])\d{3}[ -]\d{3}[ -]\d{3}(?![\w-]|[ -]\d)/g, accept: (m) => luhnValid(m.replace(/\D/g, '')) },
  { label: 'national-id', re: /(?<![\w-]|\d )[2-9]\d{3} \d{4} \d{4}(?![\w-]| \d)/g, accept: (m) => verhoeffValid(m.replace(/ /g, '')) },
  { label: 'national-id', re: /\b[XYZ0-9]\d{7}[A-Z]\b/g, accept: dniValid },
  { label: 'national-id', re: /\b[A-Z]{6}\d{2}[A-EHLMPR-T]\d{2}[A-Z]\d{3}[A-Z]\b/g },
  { label: 'national-id', re: /\b[A-Z]{3}[PCHFATBLJG][A-Z]\d{4}[A-Z]\b/g },
  { label: 'national-id', re: /\b[A-Z]{4}\d{6}[HM][A-Z]{5}[A-Z0-9]\d\b/g },
  { label: 'national-id', re: /(?<![\w-])\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])-[1-8]\d{6}(?![\w-])/g },
  { label: 'national-id', re: /(?<![\w-])[1-9]\d{5}(?:19|20)\d{2}(?:0[1-9]|1[0-2])\d{5}[\dXx](?![\w-])/g, accept: chineseIdValid },
  { label: 'national-id', re: /(?<![\w-])[12] ?\d{2} ?\d{2} ?\d{2} ?\d{3} ?\d{3} ?\d{2}(?![\w-])/g, accept: nirValid },
  { label: 'national-id', re: /(?<![\w-])(?:19|20)?\d{6}[-+]\d{4}(?![\w-])/g, accept: (m) => luhnValid(m.replace(/\D/g, '').slice(-10)) && /^(?:\d{2})?\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])/.test(m) },
];
