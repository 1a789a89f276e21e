// The language picker in a page's header: a labelled <select> of the catalog's languages. A
// choice is remembered (localStorage, by i18n.js) and the page is drawn again in it.
import { chooseLanguage, language, languages } from "./i18n.js";

// Fill `select` with the languages and call `redraw()` after each switch.
export function startPicker(select, redraw) {
  const fill = () => {
    select.replaceChildren(...languages().map(({ code, name }) => {
      const option = document.createElement("option");
      option.value = code;
      option.lang = code;
      option.textContent = name;
      return option;
    }));
    select.value = language();
  };
  fill();
  let asked = 0;
  select.addEventListener("change", async () => {
    const mine = ++asked;
    await chooseLanguage(select.value);
    if (mine !== asked) return; // a later choice is on its way
    fill();
    redraw();
  });
}
