// The cross-check page: a form from the puzzle's question options, the table of every back end's answer.
"use strict";

const $ = id => document.getElementById(id);
let puzzles = [];

function fileField(option, name) {
  // A FILE option: a shipped instance picked by name, or content uploaded (a file read here) or pasted.
  // The server reads no path of its own: it gets the name, or the text.
  const shipped = document.createElement("select");
  shipped.append(new Option(option.required ? "(choose, or upload / paste below)" : "(the default)", ""));
  for (const each of option.shipped) shipped.append(new Option(each, each));
  const upload = Object.assign(document.createElement("input"), { type: "file", className: "upload" });
  const pasted = Object.assign(document.createElement("textarea"), {
    rows: 4, cols: 48, spellcheck: false, className: "pasted", placeholder: "or paste the file's text here" });
  upload.onchange = async () => {
    const file = upload.files[0];
    if (file) { pasted.value = await file.text(); pasted.dataset.name = file.name; }
  };
  pasted.oninput = () => { delete pasted.dataset.name; };
  const box = document.createElement("div");
  box.className = "file-option";
  box.dataset.option = option.name;
  box.dataset.type = "file";
  const help = Object.assign(document.createElement("span"), { className: "keys", textContent: `  ${option.help}` });
  box.append(`${name}: shipped `, shipped, " or upload ", upload, help, pasted);
  return box;
}

function fileValue(box) {
  // The value a FILE option sends: {text, name} when content was uploaded or pasted, else the shipped name.
  const text = box.querySelector("textarea").value;
  if (text.trim()) return { text, name: box.querySelector("textarea").dataset.name || "pasted.txt" };
  return box.querySelector("select").value || undefined;
}

function field(option) {
  const label = document.createElement("label");
  label.title = option.help;
  const name = option.positional ? option.name.toUpperCase() : option.name.replaceAll("_", "-");
  if (option.file) return fileField(option, name);
  let input;
  if (option.type === "bool") {
    input = document.createElement("input");
    input.type = "checkbox";
    label.append(input, ` ${name}`);
  } else if (option.choices.length) {
    input = document.createElement("select");
    if (!option.required && option.default === null) input.append(new Option("", ""));
    for (const choice of option.choices) input.append(new Option(String(choice), String(choice)));
    input.value = option.default === null ? "" : String(option.default);
    label.append(`${name} `, input);
  } else {
    input = document.createElement("input");
    input.size = option.type === "str" ? 24 : 6;
    input.placeholder = option.many ? "comma-separated" : option.default === null ? (option.required ? "required" : "") : String(option.default);
    label.append(`${name} `, input);
  }
  input.dataset.option = option.name;
  input.dataset.type = option.type;
  input.dataset.many = String(option.many);
  const line = document.createElement("div");
  line.append(label, Object.assign(document.createElement("span"), { className: "keys", textContent: `  ${option.help}` }));
  return line;
}

function choose() {
  const puzzle = puzzles.find(p => p.name === $("puzzle").value);
  $("summary").textContent = puzzle.summary;
  const options = $("options");
  options.innerHTML = "";
  puzzle.options.forEach(option => options.append(field(option)));
}

function values() {
  const chosen = {};
  for (const input of document.querySelectorAll("#options [data-option]")) {
    const name = input.dataset.option;
    if (input.dataset.type === "file") {
      const value = fileValue(input);
      if (value !== undefined) chosen[name] = value;
      continue;
    }
    if (input.dataset.type === "bool") { if (input.checked) chosen[name] = true; continue; }
    const text = input.value.trim();
    if (!text) continue;
    chosen[name] = input.dataset.many === "true" ? text.split(",").map(s => s.trim()).filter(Boolean) : text;
  }
  return chosen;
}

function verdictLine(report) {
  // The CLI's verdict line, under the question's label; all answering and agreeing reads "the back ends agree".
  if (report.agree && !report.missing.length) return `${report.label}: the back ends agree`;
  return `${report.label}: ${report.summary}`;
}

function row(cells, backend) {
  const tr = document.createElement("tr");
  tr.dataset.backend = backend;
  for (const text of cells) tr.append(Object.assign(document.createElement("td"), { textContent: String(text) }));
  return tr;
}

function showReport(report) {
  // Every back end asked: a row with its answer, or with its category (declined, unavailable, unknown,
  // failed) and its reason; then the verdict (agree, disagree, not compared).
  $("verdict").textContent = verdictLine(report);
  $("verdict").className = report.agree ? "ok" : "bad";
  $("verdict").dataset.verdict = report.verdict;
  const table = $("results");
  table.innerHTML = "<tr><th>back end</th><th>status</th><th>answer</th><th>seconds</th><th>search</th></tr>";
  for (const each of report.results) {
    const search = Object.entries(each.stats).map(([k, v]) => `${k} ${JSON.stringify(v)}`).join(", ").slice(0, 160);
    table.append(row([each.backend, each.status, each.summary, each.seconds, search], each.backend));
  }
  for (const each of report.missing) table.append(row([each.backend, each.status, each.reason, "-", ""], each.backend));
  $("limit").textContent = report.limit_seconds ? `each back end at most ${report.limit_seconds} s, side by side` : "";
  $("drawn-by").textContent = report.drawn_by ? `the answer of ${report.drawn_by}` : "";
  $("drawing").textContent = report.drawing;
  $("drawing").hidden = !report.drawing;
}

function clearReport(text) {
  // What a request that failed leaves: no result of an earlier question, only what is under way (or nothing).
  $("verdict").textContent = text;
  $("verdict").className = "";
  delete $("verdict").dataset.verdict;
  for (const id of ["results", "limit", "drawn-by", "drawing"]) $(id).textContent = "";
  $("drawing").hidden = true;
}

function ask() {
  clearReport("asking every back end ...");
  const only = [...document.querySelectorAll(".only:checked")].map(box => box.value);
  return working(async () => {
    try {
      showReport(await call("POST", "/api/crosscheck", { puzzle: $("puzzle").value, options: values(), backends: only }));
    } catch (error) {
      clearReport("");  // the error (shown by call) replaces the result
      throw error;
    }
  });
}

$("puzzle").onchange = choose;
$("ask").onclick = ask;
(async () => {
  puzzles = (await call("GET", "/api/crosscheck/puzzles")).puzzles;
  for (const p of puzzles) $("puzzle").append(new Option(p.name, p.name));
  $("puzzle").value = puzzles.some(p => p.name === "tangram") ? "tangram" : puzzles[0].name;
  choose();
})();
