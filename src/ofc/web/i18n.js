// The client's words in the player's language: the server's gettext catalogs as JSON
// (GET /api/i18n[/{lang}], the same .po files the terminal reads; no build step).
//   tr("Hint"), tr("{name} must act first", { name }), trn("{n} point", "{n} points", n),
//   trc("row", "top"). Calls take literal strings so the extractor finds them.
// Static page text: <button data-i18n="Hint">Hint</button>, <input data-i18n-placeholder="Name">.

const STORE_KEY = "ofc.language";
const GLUE = "\u0004";
let catalog = { language: "en", languages: [], plural: { one: 0, other: 1 }, messages: {} };
let rules = new Intl.PluralRules("en");
let numbers = new Intl.NumberFormat("en");

export function language() { return catalog.language; }
export function languages() { return catalog.languages; }

// The picker's remembered choice, or "" to let the server follow Accept-Language.
export function chosenLanguage() {
  try { return localStorage.getItem(STORE_KEY) || ""; } catch (error) { return ""; }
}

// Load a language (the remembered one by default) and translate the static page text.
// When choices overlap (arrow keys on the picker), the last one asked for wins.
let asked = 0;

export async function loadLanguage(choice = chosenLanguage()) {
  const mine = ++asked;
  let loaded = null;
  try {
    const response = await fetch(choice ? `/api/i18n/${encodeURIComponent(choice)}` : "/api/i18n");
    if (response.ok) loaded = await response.json();
  } catch (error) { /* offline: keep English, the message ids */ }
  if (mine !== asked) return catalog.language;
  if (loaded) catalog = loaded;
  rules = new Intl.PluralRules(catalog.language);
  numbers = new Intl.NumberFormat(catalog.language);
  document.documentElement.lang = catalog.language;
  translatePage(document);
  return catalog.language;
}

// Remember the picker's choice and load it.
export async function chooseLanguage(code) {
  try { localStorage.setItem(STORE_KEY, code); } catch (error) { /* private mode */ }
  return loadLanguage(code);
}

// Every negative number the page shows takes the typographic minus (U+2212), whatever the
// language's Intl writes ("-3", "\u2212" or a bidi mark before it): one sign on every page.
export function withMinus(text) {
  return String(text).replace(/^[\u200e\u200f\u061c]*[-\u2212]/, "\u2212");
}

export function formatNumber(value) {
  const number = Number(value);
  return Number.isFinite(number) ? withMinus(numbers.format(number)) : String(value);
}

export function formatSigned(value) {
  const number = Number(value);
  return `${number > 0 ? "+" : ""}${formatNumber(value)}`;
}

// An amount the server wrote as text ("12.50", "-3"): the language's way, keeping its decimals.
export function formatAmount(value) {
  const text = String(value ?? "");
  const number = Number(text);
  if (text === "" || !Number.isFinite(number)) return text;
  const digits = Math.min(20, (text.split(".")[1] || "").length);
  return withMinus(new Intl.NumberFormat(catalog.language, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(number));
}

// A share (0.7) as the language writes a percentage ("70%", "70 %").
export function formatPercent(share) {
  const number = Number(share);
  if (!Number.isFinite(number)) return String(share);
  return new Intl.NumberFormat(catalog.language, { style: "percent", maximumFractionDigits: 1 }).format(number);
}

export function formatSignedAmount(value) {
  return `${Number(value) > 0 ? "+" : ""}${formatAmount(value)}`;
}

function lookup(key, fallback) {
  const found = catalog.messages[key];
  return typeof found === "string" && found ? found : fallback;
}

function render(value) {
  if (value && typeof value === "object") {
    if ("term" in value) return trc(value.context, value.term);
    if ("template" in value) return tr(value.template, value.params || {});
  }
  if (typeof value === "number") return formatNumber(value);
  return value === undefined || value === null ? "" : String(value);
}

// Fill {placeholders}: numbers the language's way, terms and nested templates translated.
export function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)(?:![rs])?\}/g, (whole, name) => (name in params ? render(params[name]) : whole));
}

export function tr(message, params) { return fill(lookup(message, message), params); }

export function trc(context, message, params) { return fill(lookup(`${context}${GLUE}${message}`, message), params); }

export function trn(singular, plural, n, params) {
  const forms = catalog.messages[singular];
  let text;
  if (Array.isArray(forms) && forms.length) {
    const index = catalog.plural[rules.select(Number(n))] ?? forms.length - 1;
    text = forms[Math.min(index, forms.length - 1)] || (Number(n) === 1 ? singular : plural);
  } else {
    text = Number(n) === 1 ? singular : plural;
  }
  return fill(text, { n, ...(params || {}) });
}

// An error or phrase the server sent as {template, params}: in the player's language.
// An error keeps the server's own English words when its template has no translation here.
export function localize(payload) {
  if (!payload || !payload.template) return payload && payload.message ? payload.message : "";
  if (payload.message && !(payload.template in catalog.messages)) return payload.message;
  return tr(payload.template, payload.params || {});
}

// Static text marked in the HTML: data-i18n (text) and data-i18n-<attribute>.
export function translatePage(root) {
  for (const node of root.querySelectorAll("*")) {
    for (const attribute of Array.from(node.attributes)) {
      if (attribute.name === "data-i18n") node.textContent = tr(attribute.value);
      else if (attribute.name.startsWith("data-i18n-")) node.setAttribute(attribute.name.slice(10), tr(attribute.value));
    }
  }
}
