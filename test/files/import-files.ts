/** Files as creators bring them, for the import tests. */

/**
 * A GeoJSON from another map tool: a Point with an unrounded latitude, one with elevation, a
 * MultiPoint of two trees, a MultiLineString track in two parts, a Polygon, a feature without
 * geometry and one without a name.
 */
export const mixedGeojson = JSON.stringify({
  type: 'FeatureCollection',
  features: [
    {
      type: 'Feature',
      properties: { name: 'Cabo Girão', description: 'Sea cliff, glass floor.', height: 580, nested: { a: 1 } },
      geometry: { type: 'Point', coordinates: [-17.0047, 32.656123449] },
    },
    {
      type: 'Feature',
      properties: { Name: 'Miradouro do Juncal' },
      geometry: { type: 'Point', coordinates: [-16.89, 32.74, 1100] },
    },
    {
      type: 'Feature',
      properties: { name: 'Fanal tree' },
      geometry: {
        type: 'MultiPoint',
        coordinates: [
          [-17.14, 32.81],
          [-17.142, 32.812],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { name: 'Levada do Rei' },
      geometry: {
        type: 'MultiLineString',
        coordinates: [
          [
            [-16.95, 32.8, 500],
            [-16.94, 32.81, 520],
          ],
          [
            [-16.93, 32.815, 540],
            [-16.92, 32.82, 560],
          ],
        ],
      },
    },
    {
      type: 'Feature',
      properties: { name: 'Laurisilva' },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [-17, 32.7],
            [-16.9, 32.7],
            [-16.9, 32.8],
            [-17, 32.7],
          ],
        ],
      },
    },
    { type: 'Feature', properties: { name: 'Somewhere' }, geometry: null },
    { type: 'Feature', properties: { colour: 'red' }, geometry: { type: 'Point', coordinates: [-16.9, 32.7] } },
  ],
});

/**
 * A CSV a European spreadsheet saves: a byte order mark, semicolons, decimal commas, a quoted name
 * with a semicolon-free comma and quotes, a row without a position, and an extra column.
 */
export const spreadsheetCsv =
  '\uFEFFName;Latitude;Longitude;Description;Parking\r\n' +
  'Lake Bled;46,3636;14,0938;Pletna boat to the island.;Paid\r\n' +
  'Savica Waterfall;46,2922;13,7967;;Paid\r\n' +
  '"Vintgar, ""the gorge""";46,3933;14,0847;;\r\n' +
  'Vršič Pass;;;Hairpins 1 to 50.;\r\n';
