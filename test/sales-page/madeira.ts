/**
 * The Madeira guide of issue 20: two peaks 3 km apart whose labels used to overlap ("Pico Ruivo"
 * on "Pico do Arieiro"), and a levada whose long name ran off the map.
 */
export const MADEIRA = {
  region: [-17.3, 32.6, -16.6, 32.9] as [number, number, number, number],
  spots: [
    { spotKey: 'pico-ruivo', name: 'Pico Ruivo', lat: 32.7589, lon: -16.9431 },
    { spotKey: 'pico-do-arieiro', name: 'Pico do Arieiro', lat: 32.7355, lon: -16.9287 },
    { spotKey: 'caldeirao-verde', name: 'Levada do Caldeirão Verde', lat: 32.7856, lon: -16.9036 },
    { spotKey: 'sao-lourenco', name: 'Ponta de São Lourenço', lat: 32.7425, lon: -16.7008 },
    { spotKey: 'funchal', name: 'Funchal Old Town', lat: 32.6476, lon: -16.9083 },
    { spotKey: 'porto-moniz', name: 'Porto Moniz pools', lat: 32.8676, lon: -17.1702 },
  ],
};
