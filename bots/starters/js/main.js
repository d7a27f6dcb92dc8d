#!/usr/bin/env node
// Spades bot starter kit (JavaScript, Node 18+, no packages), protocol v1.
// Run: node main.js     Edit strategy.js; protocol.js and cards.js are the plumbing.
"use strict";
const { Bot } = require("./strategy");
const { run } = require("./protocol");

run(new Bot());
