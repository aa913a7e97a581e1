import assert from 'node:assert/strict';
import { test } from 'node:test';
import { escapeHtml, html, Markup, prose } from '../../src/resources/sales-page/html.ts';

test('every interpolated value is escaped unless it is Markup; lists join, null and false leave nothing', () => {
  const name = `<b onclick="x">'Tom' & Jerry</b>`;
  assert.equal(
    html`<p title="${name}">${name}</p>`.text,
    '<p title="&lt;b onclick=&quot;x&quot;&gt;&#39;Tom&#39; &amp; Jerry&lt;/b&gt;">&lt;b onclick=&quot;x&quot;&gt;&#39;Tom&#39; &amp; Jerry&lt;/b&gt;</p>',
  );
  assert.equal(html`${[html`<i>a</i>`, '<i>']}${null}${undefined}${false}${0}`.text, '<i>a</i>&lt;i&gt;0');
  assert.equal(html`${new Markup('<br>')}`.text, '<br>');
  assert.equal(escapeHtml('a&b'), 'a&amp;b');
});

test('a paragraph: "- " lines become a list, other lines run on with breaks, blank lines go', () => {
  assert.equal(prose('One line').text, '<p>One line</p>');
  assert.equal(
    prose('Intro\nstill intro\n- first\n- <second>\n\nAfter').text,
    '<p>Intro<br>still intro</p><ul><li>first</li><li>&lt;second&gt;</li></ul><p>After</p>',
  );
  assert.equal(
    prose('-not a bullet\n  - indented bullet').text,
    '<p>-not a bullet</p><ul><li>indented bullet</li></ul>',
  );
});
