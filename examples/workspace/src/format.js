// Formatting helpers for the inventory report.

function formatPrice(value) {
  return "$" + value.toFixed(2);
}

function formatLine(name, count, price) {
  return name.padEnd(12) + String(count).padStart(5) + "  " + formatPrice(price);
}

module.exports = { formatPrice, formatLine };
