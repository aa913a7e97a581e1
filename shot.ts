import { writeFileSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { drawMap } from './src/resources/sales-page/page-map.ts';
const sets: Record<string, [any, any[]]> = {
  madeira: [[-17.3, 32.6, -16.6, 32.9], [
    { name: 'Pico Ruivo', lat: 32.7589, lon: -16.9431 },
    { name: 'Pico do Arieiro', lat: 32.7355, lon: -16.9287 },
    { name: 'Levada do Caldeirão Verde', lat: 32.7856, lon: -16.9036 },
    { name: 'Ponta de São Lourenço', lat: 32.7425, lon: -16.7008 },
    { name: 'Funchal Old Town', lat: 32.6476, lon: -16.9083 },
    { name: 'Porto Moniz pools', lat: 32.8676, lon: -17.1702 },
  ]],
  dolomites: [[11.2, 46.1, 12.6, 46.9], Array.from({ length: 12 }, (_, i) => ({
    name: `Lago ${['di Braies', 'di Sorapis', 'di Carezza', 'Antorno', 'di Misurina', 'Federa'][i % 6]} ${i + 1}`,
    lat: 46.2 + (i % 4) * 0.17, lon: 11.3 + Math.floor(i / 4) * 0.4 + (i % 3) * 0.05 }))],
  fiji: [[177, -19.5, -178, -15.5], [{ name: 'Viti Levu', lat: -17.8, lon: 178 }, { name: 'Taveuni', lat: -16.8, lon: -179.9 }]],
  funchal: [[-16.95, 32.63, -16.88, 32.67], [{ name: 'Mercado dos Lavradores', lat: 32.6496, lon: -16.9035 }, { name: 'Sé Cathedral', lat: 32.6479, lon: -16.9084 }]],
  croatia: [[13.5, 42.4, 19.4, 46.5], [{ name: 'Dubrovnik', lat: 42.65, lon: 18.09 }, { name: 'Split', lat: 43.51, lon: 16.44 }, { name: 'Plitvice Lakes', lat: 44.88, lon: 15.62 }, { name: 'Zagreb', lat: 45.81, lon: 15.98 }, {name:'Hvar', lat:43.17, lon:16.44}]],
};
const only = process.env.ONLY; const body = Object.entries(sets).filter(([n]) => !only || n === only).map(([n, [r, p]]) => `<h3>${n}</h3><div style="width:480px">${drawMap(r, p)}</div>`).join('');
writeFileSync('/tmp/bm/maps.html', `<!doctype html><meta charset=utf-8><body style="margin:8px;font-family:sans-serif">${body}</body>`);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--headless', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 500, height: 800 } });
await page.goto('file:///tmp/bm/maps.html');
await page.screenshot({ path: '/tmp/bm/maps.png', fullPage: true });
await browser.close();
