// Shared by every page: JSON requests that show a server's one-line error, SVG helpers.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";

function showError(text) {
  const box = document.getElementById("error");
  box.textContent = text || "";
}

async function call(method, url, data) {
  // One JSON request; on a 4xx/5xx the server's one-line error is shown and thrown.
  // The server takes a POST only with a JSON body, so every request but a GET carries one ({} for none).
  const options = { method, headers: {} };
  if (method !== "GET") {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(data === undefined ? {} : data);
  }
  const response = await fetch(url, options);
  const answer = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  if (!response.ok) {
    showError(answer.error || `${response.status} ${response.statusText}`);
    throw new Error(answer.error);
  }
  showError("");
  return answer;
}

function chosenBackend() {
  return document.getElementById("backend").value;
}

function svgElement(name, attributes, parent) {
  const element = document.createElementNS(SVG_NS, name);
  for (const [key, value] of Object.entries(attributes || {})) element.setAttribute(key, value);
  if (parent) parent.appendChild(element);
  return element;
}

function inkOn(colour) {
  // Black or white text on a #rrggbb background, whichever reads better.
  const [r, g, b] = [1, 3, 5].map(i => parseInt(colour.slice(i, i + 2), 16));
  return r * 299 + g * 587 + b * 114 > 128000 ? "#111" : "#fff";
}

function busy(on) {
  document.body.classList.toggle("busy", on);
}

async function working(work) {
  // One step that waits on the server: the page shows it is busy, and says when it is done
  // (data-pending, which the browser tests wait on). A refusal was already shown by call().
  document.body.dataset.pending = "1";
  busy(true);
  try {
    return await work();
  } catch (error) {
    return undefined;
  } finally {
    busy(false);
    document.body.dataset.pending = "0";
  }
}
