// The library's core without its 80 locale files (the entry the package gives browsers): only the codes are used.
import countries from 'i18n-iso-countries/index.js';
import { z } from 'zod';

const countryCodes = Object.keys(countries.getAlpha2Codes()) as [string, ...string[]];
const currencyCodes = Intl.supportedValuesOf('currency') as [string, ...string[]];

const COUNTRY_HINT = 'must be an ISO 3166-1 alpha-2 country code such as "CH", "NZ" or "US"';
const CURRENCY_HINT = 'must be an ISO 4217 currency code such as "eur", "usd" or "chf"';

/**
 * ISO 3166-1 alpha-2, any case in, upper case out. Both ISO lists are fixed lists, so a code
 * outside them is a shape error (invalid_argument), like any enum.
 */
export const countryCodeSchema = z
  .string()
  .transform((code) => code.toUpperCase())
  .pipe(z.enum(countryCodes, { error: COUNTRY_HINT }))
  .describe('ISO 3166-1 alpha-2 country code, e.g. "CH"');

/** A country code, or "" for worldwide. */
export const countryOrWorldwideSchema = z
  .string()
  .transform((code) => code.toUpperCase())
  .pipe(z.enum(['', ...countryCodes], { error: `${COUNTRY_HINT}, or "" for worldwide` }))
  .describe('ISO 3166-1 alpha-2 country code, or "" for worldwide');

/** ISO 4217, any case in, upper case out; callers store the case they need. */
export const currencyCodeSchema = z
  .string()
  .transform((code) => code.toUpperCase())
  .pipe(z.enum(currencyCodes, { error: CURRENCY_HINT }))
  .describe('ISO 4217 currency code, three letters, e.g. "eur"');
