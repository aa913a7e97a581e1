/** What the preview adds to the buyers' page: the banner and the guide's contents. */
export const PREVIEW_CSS = `
.preview-banner{position:sticky;top:0;z-index:2;margin:0;padding:.6rem 1rem;background:#fff4c2;border-bottom:1px solid #d9c26a;font-size:.95rem;text-align:center}
.contents{border-top:3px double #d9d4c7;margin-top:3rem;padding-top:1rem}
.contents article{background:#fff;border:1px solid #e3e0d8;border-radius:.6rem;padding:.75rem .9rem;margin:0 0 1rem}
.contents h3{margin:.25rem 0}
.contents h4{font-size:1rem;margin:1rem 0 .25rem}
.contents dl{display:grid;grid-template-columns:auto 1fr;gap:.15rem .75rem;margin:.5rem 0}
.contents dt{font-weight:600}
.contents dd{margin:0}
.contents .note{font-size:.9rem;color:#55605b}
.contents .callout{border-left:4px solid #1f6f54;background:#eef5f1;padding:.5rem .75rem;margin:.75rem 0}
.contents .callout.warning{border-color:#a4262c;background:#fbeaea}
.contents ol.days>li{margin:.75rem 0}
.track svg{width:100%;max-width:30rem;border:1px solid #d9d4c7;border-radius:.6rem;background:#e9efe4}
.track polyline{fill:none;stroke:#a4262c;stroke-width:3;stroke-linejoin:round;stroke-linecap:round}
.track circle{fill:#1f6f54}
.photos{display:grid;gap:1rem;align-items:start}
@media (min-width:40rem){.photos{grid-template-columns:1fr 1fr}}
`;
