// The API's documentation, drawn from its own OpenAPI document (served by this server).
// Text from the document is always set as text, never as HTML.

const METHODS = ["get", "post", "put", "patch", "delete"];

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

function resolve(doc, schema) {
  let seen = 0;
  while (schema && schema.$ref && seen++ < 20) {
    const parts = schema.$ref.replace(/^#\//, "").split("/");
    schema = parts.reduce((node, part) => (node ? node[part.replace(/~1/g, "/").replace(/~0/g, "~")] : undefined), doc);
  }
  return schema || {};
}

function refName(schema) {
  return schema && schema.$ref ? schema.$ref.split("/").pop() : null;
}

function typeOf(doc, schema) {
  if (!schema) return "any";
  const name = refName(schema);
  if (name) return name;
  for (const key of ["anyOf", "oneOf"]) {
    if (schema[key]) return schema[key].map((s) => typeOf(doc, s)).join(" | ");
  }
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.type === "array") return `${typeOf(doc, schema.items)}[]`;
  if (schema.type === "object" && schema.additionalProperties && typeof schema.additionalProperties === "object") {
    return `{string: ${typeOf(doc, schema.additionalProperties)}}`;
  }
  const limits = [];
  if (schema.minimum !== undefined) limits.push(`≥ ${schema.minimum}`);
  if (schema.maximum !== undefined) limits.push(`≤ ${schema.maximum}`);
  if (schema.minItems !== undefined) limits.push(`≥ ${schema.minItems} items`);
  if (schema.maxItems !== undefined) limits.push(`≤ ${schema.maxItems} items`);
  return (schema.type || "any") + (limits.length ? ` (${limits.join(", ")})` : "");
}

function schemaTable(doc, schema) {
  const resolved = resolve(doc, schema);
  const properties = resolved.properties || {};
  const names = Object.keys(properties);
  if (!names.length) return el("p", { class: "type", text: typeOf(doc, schema) });
  const required = new Set(resolved.required || []);
  const table = el("table", {}, el("tr", {}, el("th", { text: "field" }), el("th", { text: "type" }), el("th", { text: "meaning" })));
  for (const name of names) {
    const property = properties[name];
    const described = resolve(doc, property);
    const field = el("td", {}, el("code", { text: name }), required.has(name) ? el("span", { class: "req", text: " required" }) : null);
    const link = refName(property) || refName(property.items || {});
    const type = el("td", { class: "type" });
    if (link) type.append(el("a", { href: `#schema-${link}`, text: typeOf(doc, property) }));
    else type.textContent = typeOf(doc, property);
    table.append(el("tr", {}, field, type, el("td", { text: property.description || described.description || "" })));
  }
  return table;
}

function tryIt(path, method, operation) {
  const media = operation.requestBody?.content?.["application/json"];
  const pathInputs = {};
  const box = el("div");
  for (const parameter of operation.parameters || []) {
    if (parameter.in !== "path" && parameter.name !== "Authorization") continue;
    const input = el("input", { placeholder: parameter.name, "aria-label": parameter.name });
    pathInputs[parameter.name] = input;
    box.append(el("label", {}, `${parameter.name} `, input), " ");
  }
  let token = null;
  if (operation.security) {
    token = el("input", { placeholder: "seat token", "aria-label": "seat token", size: "48" });
    box.append(el("label", {}, "Bearer ", token));
  }
  const body = media ? el("textarea", { spellcheck: "false" }) : null;
  if (body) body.value = JSON.stringify(media.example ?? {}, null, 2);
  const send = el("button", { type: "button", text: "Send" });
  const answer = el("pre", { class: "hidden" });
  send.addEventListener("click", async () => {
    let url = path;
    for (const [name, input] of Object.entries(pathInputs)) {
      url = url.replace(`{${name}}`, encodeURIComponent(input.value));
    }
    const headers = {};
    if (body) headers["Content-Type"] = "application/json";
    if (token && token.value) headers.Authorization = `Bearer ${token.value}`;
    answer.classList.remove("hidden");
    answer.textContent = "…";
    try {
      const response = await fetch(url.replace(/^\//, "../"), { method: method.toUpperCase(), headers, body: body ? body.value : undefined });
      const text = await response.text();
      let shown = text;
      try { shown = JSON.stringify(JSON.parse(text), null, 2); } catch { /* not JSON */ }
      answer.textContent = `${response.status} ${response.statusText}\n\n${shown}`;
      answer.classList.toggle("bad", !response.ok);
    } catch (error) {
      answer.textContent = String(error);
    }
  });
  return el("div", {}, el("h4", { text: "Try it" }), box, body, el("p", {}, send), answer);
}

function operationView(doc, path, method, operation) {
  const summary = el(
    "summary",
    {},
    el("span", { class: `method ${method}`, text: method }),
    el("span", { class: "path", text: path }),
    el("span", { class: "sum", text: operation.summary || "" }),
  );
  const body = el("div", { class: "body" });
  if (operation.description) body.append(el("p", { text: operation.description }));
  const parameters = operation.parameters || [];
  if (parameters.length) {
    const table = el("table", {}, el("tr", {}, el("th", { text: "parameter" }), el("th", { text: "in" }), el("th", { text: "meaning" })));
    for (const parameter of parameters) {
      table.append(el("tr", {}, el("td", {}, el("code", { text: parameter.name })), el("td", { text: parameter.in }), el("td", { text: parameter.description || "" })));
    }
    body.append(el("h4", { text: "Parameters" }), table);
  }
  if (operation.security) body.append(el("p", { text: "Needs a seat's token: Authorization: Bearer <token>." }));
  const media = operation.requestBody?.content?.["application/json"];
  if (media) {
    body.append(el("h4", { text: "Request body" }), schemaTable(doc, media.schema));
    if (media.example !== undefined) body.append(el("h4", { text: "Example" }), el("pre", { text: JSON.stringify(media.example, null, 2) }));
  }
  const responses = el("table", {}, el("tr", {}, el("th", { text: "status" }), el("th", { text: "meaning" }), el("th", { text: "body" })));
  for (const [status, response] of Object.entries(operation.responses || {})) {
    const resolved = resolve(doc, response);
    const content = resolved.content || {};
    const [mediaType, media2] = Object.entries(content)[0] || [null, null];
    const name = media2 ? refName(media2.schema) : null;
    const cell = el("td", { class: "type" });
    if (name) cell.append(el("a", { href: `#schema-${name}`, text: `${name} (${mediaType})` }));
    else if (mediaType) cell.textContent = mediaType;
    responses.append(el("tr", {}, el("td", { class: "status", text: status }), el("td", { text: resolved.description || "" }), cell));
  }
  body.append(el("h4", { text: "Responses" }), responses, tryIt(path, method, operation));
  const details = el("details", { class: "op" }, summary, body);
  details.dataset.search = `${method} ${path} ${operation.summary || ""} ${(operation.tags || []).join(" ")}`.toLowerCase();
  return details;
}

async function main() {
  const response = await fetch("openapi.json");
  const doc = await response.json();
  document.title = `${doc.info.title} ${doc.info.version}`;
  document.getElementById("title").textContent = `${doc.info.title} ${doc.info.version}`;
  const byTag = new Map();
  let count = 0;
  for (const [path, item] of Object.entries(doc.paths || {})) {
    for (const method of METHODS) {
      const operation = item[method];
      if (!operation) continue;
      count += 1;
      const tag = (operation.tags || ["other"])[0];
      if (!byTag.has(tag)) byTag.set(tag, []);
      byTag.get(tag).push([path, method, operation]);
    }
  }
  document.getElementById("summary").textContent =
    `${count} operations from this server's OpenAPI ${doc.openapi} document (openapi.json). ` +
    "Errors are application/problem+json (RFC 9457).";
  const nav = document.getElementById("tags");
  const main = document.getElementById("operations");
  for (const [tag, operations] of byTag) {
    nav.append(el("a", { href: `#tag-${tag}`, text: tag }));
    const section = el("section", { id: `tag-${tag}` }, el("h2", { text: tag }));
    for (const [path, method, operation] of operations) section.append(operationView(doc, path, method, operation));
    main.append(section);
  }
  const schemas = document.getElementById("schemas");
  for (const [name, schema] of Object.entries(doc.components?.schemas || {})) {
    schemas.append(
      el("details", { class: "op", id: `schema-${name}` },
        el("summary", {}, el("span", { class: "path", text: name }), el("span", { class: "sum", text: schema.description || "" })),
        el("div", { class: "body" }, schemaTable(doc, { $ref: `#/components/schemas/${name}` }))),
    );
  }
  document.getElementById("schemas-section").hidden = false;
  document.getElementById("filter").addEventListener("input", (event) => {
    const needle = event.target.value.trim().toLowerCase();
    for (const op of main.querySelectorAll("details.op")) {
      op.classList.toggle("hidden", needle !== "" && !op.dataset.search.includes(needle));
    }
  });
  if (location.hash.startsWith("#schema-")) document.getElementById(location.hash.slice(1))?.setAttribute("open", "");
}

main().catch((error) => {
  document.getElementById("summary").textContent = `Could not read openapi.json: ${error}`;
});
