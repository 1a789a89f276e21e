"""A small accessibility checker for the browser tests (issue 14), run in the page by Playwright.

No third-party scanner (axe-core's licence is not one we take): these checks follow WCAG 2.1
and the accessible-name rules of the ARIA specification closely enough for this client:

- every control a player can reach (buttons, links, inputs, selects, anything focusable or with
  an ARIA widget role) has an accessible name: ``aria-labelledby``, ``aria-label``, a ``<label>``
  (wrapping it or ``for`` its id), its text, or ``title`` (a placeholder alone is not a name);
- every image (``<img>``: ``alt``; ``role=img``: a name) can be said;
- every form field has a label (``<label>``, ``aria-label`` or ``aria-labelledby``);
- pressing Tab from the top of the page reaches every visible, enabled control whose
  ``tabIndex`` is not negative;
- text contrasts with what is behind it by at least 4.5:1 (3:1 for large text: 24 px, or
  18.66 px bold), WCAG 1.4.3. The background is worked out from the computed styles: the
  background colours of the element and its ancestors, composed with their alpha, over every
  colour of a gradient among them (the worst one counts). Disabled controls are exempt (WCAG).
"""

from __future__ import annotations

from playwright.sync_api import Page

CONTROLS = (
    "button, a[href], input:not([type=hidden]), select, textarea, [tabindex], "
    "[role=button], [role=link], [role=checkbox], [role=tab], [role=menuitem]"
)

NAMES = """(controls) => {
  const visible = (n) => n.getClientRects().length > 0 && getComputedStyle(n).visibility !== 'hidden';
  const text = (n) => (n.textContent || '').replace(/\\s+/g, ' ').trim();
  const labelled = (n) => (n.getAttribute('aria-labelledby') || '').split(/\\s+/).filter(Boolean)
    .map((id) => document.getElementById(id)).filter(Boolean).map(text).join(' ').trim();
  const label = (n) => {
    const own = n.labels ? Array.from(n.labels).map(text).join(' ').trim() : '';
    return own;
  };
  const field = (n) => ['INPUT', 'SELECT', 'TEXTAREA'].includes(n.tagName);
  const name = (n) => labelled(n) || (n.getAttribute('aria-label') || '').trim()
    || (field(n) ? label(n) : text(n)) || (n.getAttribute('title') || '').trim();
  const problems = [];
  for (const n of document.querySelectorAll(controls)) {
    if (!visible(n)) continue;
    if (!name(n)) problems.push(`no accessible name: ${n.outerHTML.slice(0, 90)}`);
    if (field(n) && !(label(n) || labelled(n) || (n.getAttribute('aria-label') || '').trim())) {
      problems.push(`form field without a label: ${n.outerHTML.slice(0, 90)}`);
    }
  }
  for (const n of document.querySelectorAll('img, [role=img], svg[role]')) {
    if (!visible(n)) continue;
    const said = n.tagName === 'IMG' ? n.getAttribute('alt') !== null : Boolean(name(n));
    if (!said) problems.push(`image without a text alternative: ${n.outerHTML.slice(0, 90)}`);
  }
  return problems;
}"""

FOCUSABLE = """(controls) => Array.from(document.querySelectorAll(controls)).filter((n) =>
  n.getClientRects().length > 0 && getComputedStyle(n).visibility !== 'hidden' && !n.disabled
  && n.tabIndex >= 0 && !n.closest('[inert]')).map((n) => {
    n.dataset.a11y = n.dataset.a11y || String(Math.random());
    return n.dataset.a11y;
  })"""

FOCUSED = "() => { const n = document.activeElement; return n && n.dataset ? n.dataset.a11y || '' : ''; }"

CONTRAST = """() => {
  const parse = (text) => {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const colours = (text) => (text.match(/rgba?\\([^)]+\\)/g) || []).map(parse);
  const over = (top, base) => {
    const a = top[3];
    return [0, 1, 2].map((i) => top[i] * a + base[i] * (1 - a)).concat([1]);
  };
  const luminance = (c) => {
    const lin = c.slice(0, 3).map((v) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2];
  };
  const ratio = (a, b) => {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  // the possible colours behind an element: the page's canvas, then each ancestor's layer
  const backs = (node) => {
    const chain = [];
    for (let n = node; n && n.nodeType === 1; n = n.parentElement) chain.unshift(n);
    let bases = [[255, 255, 255, 1]];
    for (const n of chain) {
      const style = getComputedStyle(n);
      const gradient = colours(style.backgroundImage);
      if (gradient.length) bases = gradient.map((g) => over(g, bases[0]));
      const colour = parse(style.backgroundColor);
      if (colour && colour[3] > 0) bases = bases.map((b) => over(colour, b));
    }
    return bases;
  };
  const problems = [];
  const seen = new Set();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    const node = t.parentElement;
    if (!t.textContent.trim() || !node || seen.has(node)) continue;
    seen.add(node);
    if (!node.getClientRects().length || getComputedStyle(node).visibility === 'hidden') continue;
    if (node.closest('button:disabled, [aria-disabled=true], option, script, style')) continue;
    const style = getComputedStyle(node);
    const ink = parse(style.color);
    const size = parseFloat(style.fontSize);
    const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
    const need = large ? 3 : 4.5;
    const worst = Math.min(...backs(node).map((b) => ratio(over(ink, b), b)));
    if (worst < need) {
      const what = `"${t.textContent.trim().slice(0, 40)}" (${node.tagName.toLowerCase()}.${node.className})`;
      problems.push(`contrast ${worst.toFixed(2)} < ${need}: ${what}`);
    }
  }
  return problems;
}"""


def audit(page: Page, *, tabs: int = 300) -> list[str]:
    """Every problem found on the page as it is now (names, images, labels, focus order, contrast)."""
    problems: list[str] = page.evaluate(NAMES, CONTROLS)
    problems += page.evaluate(CONTRAST)
    wanted: list[str] = page.evaluate(FOCUSABLE, CONTROLS)
    page.evaluate("() => { document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0); }")
    reached: set[str] = set()
    for _ in range(min(tabs, 3 * len(wanted) + 5)):
        page.keyboard.press("Tab")
        reached.add(page.evaluate(FOCUSED))
        if reached.issuperset(wanted):
            break
    missing = [key for key in wanted if key not in reached]
    if missing:
        names = page.evaluate(
            "(keys) => keys.map((k) => document.querySelector(`[data-a11y='${k}']`)).filter(Boolean)"
            ".map((n) => n.outerHTML.slice(0, 90))",
            missing,
        )
        problems += [f"not reached by Tab: {name}" for name in names]
    return problems
