// The Traces page: trace files uploaded, or a question traced live on the server, then replayed (traces.js).
"use strict";

const MAX_UPLOAD = 1000000;  // bytes of a request body this server takes (pysolve.web.guard.MAX_BODY)
let traced = [];
let settings = [];  // the search settings whose values can be compared side by side (pysolve.replay.SETTINGS)

whenRefused(() => {
  // A refusal replaces the replay: no stale trees under a new error.
  if (replay) replay.stop();
  document.getElementById("replay").hidden = true;
});

function readFiles() {
  // The chosen files' text, sent to be read and checked; the replay of what comes back.
  return working(async () => {
    const files = [...document.getElementById("files").files];
    const size = files.reduce((sum, file) => sum + file.size, 0);
    if (size > MAX_UPLOAD) {
      showError(`these traces hold ${(size / 1e6).toFixed(1)} MB, more than the 1 MB this server takes; ` +
        "replay them with pysolve trace FILE1 FILE2 --html OUT");
      return;
    }
    const traces = await Promise.all(files.map(async file => ({ name: file.name, text: await file.text() })));
    startReplay(await call("POST", "/api/traces/read", { traces }));
  });
}

function optionField(option) {
  // One question option: a shipped instance picked by name (FILE), a choice, a flag, or a value typed.
  const label = Object.assign(document.createElement("label"), { title: option.help });
  let input;
  if (option.file) {
    input = document.createElement("select");
    input.append(new Option("(the default)", ""));
    for (const each of option.shipped) input.append(new Option(each, each));
  } else if (option.choices.length) {
    input = document.createElement("select");
    for (const each of option.choices) input.append(new Option(each, each));
    if (option.default !== null) input.value = option.default;
  } else if (option.type === "bool") {
    input = Object.assign(document.createElement("input"), { type: "checkbox" });
  } else {
    input = Object.assign(document.createElement("input"), { size: 8,
      placeholder: option.default === null ? (option.required ? "required" : "") : String(option.default) });
  }
  input.dataset.option = option.name;
  input.dataset.type = option.type;
  label.append(`${option.positional ? option.name.toUpperCase() : option.name.replaceAll("_", "-")} `, input);
  return label;
}

function chosenPuzzle() {
  return traced.find(p => p.name === document.getElementById("puzzle").value);
}

function choose() {
  const puzzle = chosenPuzzle();
  document.getElementById("summary").textContent = puzzle ? puzzle.summary : "no puzzle records its searches yet";
  document.getElementById("options").replaceChildren(...(puzzle ? puzzle.options.map(optionField) : []));
  const compare = document.getElementById("compare");
  compare.replaceChildren(new Option("the back ends ticked", ""));
  for (const option of puzzle ? puzzle.options : []) {
    if (settings.includes(option.name) && option.choices.length > 1) {
      compare.append(new Option(`the values of ${option.name} ticked, on the back end chosen above`, option.name));
    }
  }
  comparing();
}

function comparing() {
  // Comparing the back ends: their boxes. Comparing a setting's values: its choices (the first four ticked),
  // in place of its own field.
  const vary = document.getElementById("compare").value;
  document.getElementById("which").hidden = Boolean(vary);
  const box = document.getElementById("values");
  box.hidden = !vary;
  box.replaceChildren();
  for (const input of document.querySelectorAll("#options [data-option]")) input.disabled = input.dataset.option === vary;
  if (!vary) return;
  const option = chosenPuzzle().options.find(each => each.name === vary);
  box.append(`${vary}: `);
  option.choices.forEach((value, index) => {
    const tick = Object.assign(document.createElement("input"), { type: "checkbox", className: "value", value,
      checked: index < 4 });
    const label = document.createElement("label");
    label.append(tick, ` ${value}`);
    box.append(label);
  });
}

function values() {
  const chosen = {};
  for (const input of document.querySelectorAll("#options [data-option]:not(:disabled)")) {
    if (input.dataset.type === "bool") { if (input.checked) chosen[input.dataset.option] = true; continue; }
    if (input.value.trim()) chosen[input.dataset.option] = input.value.trim();
  }
  return chosen;
}

function askLive() {
  const puzzle = document.getElementById("puzzle").value, vary = document.getElementById("compare").value;
  const asked = { puzzle, options: values() };
  if (vary) {
    Object.assign(asked, { backends: [chosenBackend()], vary,
      values: [...document.querySelectorAll(".value:checked")].map(box => box.value) });
  } else {
    asked.backends = [...document.querySelectorAll(".only:checked")].map(box => box.value);
  }
  return working(async () => startReplay(await call("POST", "/api/traces/ask", asked)));
}

document.getElementById("read").onclick = readFiles;
document.getElementById("ask").onclick = askLive;
document.getElementById("puzzle").onchange = choose;
document.getElementById("compare").onchange = comparing;
(async () => {
  ({ puzzles: traced, settings } = await call("GET", "/api/traces/puzzles"));
  for (const p of traced) document.getElementById("puzzle").append(new Option(p.name, p.name));
  choose();
})();
