// Code highlighting with highlight.js's core and a chosen set of languages (the full bundle is ~1 MB).
import hljs from 'highlight.js/lib/core';
import bash from 'highlight.js/lib/languages/bash';
import c from 'highlight.js/lib/languages/c';
import cpp from 'highlight.js/lib/languages/cpp';
import css from 'highlight.js/lib/languages/css';
import diff from 'highlight.js/lib/languages/diff';
import dockerfile from 'highlight.js/lib/languages/dockerfile';
import go from 'highlight.js/lib/languages/go';
import ini from 'highlight.js/lib/languages/ini';
import java from 'highlight.js/lib/languages/java';
import javascript from 'highlight.js/lib/languages/javascript';
import json from 'highlight.js/lib/languages/json';
import makefile from 'highlight.js/lib/languages/makefile';
import markdown from 'highlight.js/lib/languages/markdown';
import python from 'highlight.js/lib/languages/python';
import ruby from 'highlight.js/lib/languages/ruby';
import rust from 'highlight.js/lib/languages/rust';
import shell from 'highlight.js/lib/languages/shell';
import sql from 'highlight.js/lib/languages/sql';
import typescript from 'highlight.js/lib/languages/typescript';
import xml from 'highlight.js/lib/languages/xml';
import yaml from 'highlight.js/lib/languages/yaml';

const LANGUAGES = {
  bash,
  c,
  cpp,
  css,
  diff,
  dockerfile,
  go,
  ini,
  java,
  javascript,
  json,
  makefile,
  markdown,
  python,
  ruby,
  rust,
  shell,
  sql,
  typescript,
  xml,
  yaml,
};
for (const [name, lang] of Object.entries(LANGUAGES)) hljs.registerLanguage(name, lang);

const EXTENSIONS: Record<string, string> = {
  sh: 'bash',
  zsh: 'bash',
  js: 'javascript',
  jsx: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  py: 'python',
  rb: 'ruby',
  rs: 'rust',
  md: 'markdown',
  yml: 'yaml',
  html: 'xml',
  htm: 'xml',
  svg: 'xml',
  h: 'c',
  hpp: 'cpp',
  cc: 'cpp',
  toml: 'ini',
  mk: 'makefile',
  Dockerfile: 'dockerfile',
};

/** The language for a fence tag or a file name, if one is registered. */
export function languageFor(tagOrPath: string | undefined): string | undefined {
  if (tagOrPath === undefined || tagOrPath === '') return undefined;
  const base = tagOrPath.split(/[\\/]/).pop() ?? tagOrPath;
  const ext = base.includes('.') ? (base.split('.').pop() ?? '') : base;
  const name = EXTENSIONS[ext] ?? EXTENSIONS[base] ?? ext.toLowerCase();
  return hljs.getLanguage(name) !== undefined ? name : undefined;
}

/** Highlighted HTML (escaped) for code; plain escaped text when the language is unknown or the code is huge. */
export function highlight(code: string, language: string | undefined): string {
  if (language !== undefined && code.length < 200_000) {
    try {
      return hljs.highlight(code, { language, ignoreIllegals: true }).value;
    } catch {
      // fall back to plain text
    }
  }
  return escapeHtml(code);
}

export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
