/** The attribution DB-IP's licence (CC BY 4.0) asks for wherever locations are shown. */
export function GeoCredit() {
  return (
    <p className="geo-credit">
      <a href="https://db-ip.com" target="_blank" rel="noreferrer">
        IP Geolocation by DB-IP
      </a>
    </p>
  )
}
